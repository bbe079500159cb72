// /labs/<slug>/solution.json: the reference solution, fetched only when the learner asks for it
// (after a pass, or after confirming), so it is not in the workbench page itself.
import type { APIRoute } from 'astro';
import { getLabs } from '../../../lib/collections';
import { readSolution } from '../../../components/lab/lab-files.ts';

export async function getStaticPaths() {
  const labs = await getLabs();
  return labs.map((lab: { id: string }) => ({ params: { slug: lab.id } }));
}

export const GET: APIRoute = ({ params }) => Response.json({ solution: readSolution(params.slug!) });
