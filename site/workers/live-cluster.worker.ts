// The page's runtime worker: holds the page's live clusters (site/lib/live/live-session.ts), one per
// LiveCluster widget, and answers the widgets through comlink. Everything here runs off the UI
// thread; a tick is bounded (MAX_TICK_MS, MAX_TICK_EVENTS), so messages never wait long.
import * as Comlink from 'comlink';
import { LiveSession } from '../lib/live/live-session.ts';
import type { LiveWorkerApi } from '../components/book/live/protocol.ts';

const sessions = new Map<string, LiveSession>();
const scenarios = new Map<string, Parameters<LiveWorkerApi['open']>[1]>();

function sessionOf(id: string): LiveSession {
  const s = sessions.get(id);
  if (!s) throw new Error(`no live cluster "${id}" in this page's worker`);
  return s;
}

const describe = (e: unknown) => (e instanceof Error ? e.message : String(e));

const api: LiveWorkerApi = {
  async open(id, scenario, inputs) {
    const t0 = performance.now();
    try {
      const session = await LiveSession.open(scenario);
      if (inputs && inputs.length > 0) await session.replay(inputs);
      sessions.set(id, session);
      scenarios.set(id, scenario);
      return { ok: true, nowMs: session.now, bootedAtMs: session.bootedAtMs, bootWallMs: performance.now() - t0 };
    } catch (e) {
      return { ok: false, error: describe(e) };
    }
  },
  async command(id, line) {
    try {
      return await sessionOf(id).command(line);
    } catch (e) {
      // the runtime never throws for a command (errors are its output); if it does, the reader sees why
      const now = sessions.get(id)?.now ?? 0;
      return { stdout: '', stderr: `internal error in the simulation: ${describe(e)}\n`, exitCode: 1, startMs: now, endMs: now };
    }
  },
  async fault(id, fault) {
    try {
      await sessionOf(id).fault(fault);
      return { ok: true };
    } catch (e) {
      return { ok: false, error: describe(e) };
    }
  },
  async tick(id, ms, eventCursor, maxEvents) {
    const s = sessionOf(id);
    const advancedMs = s.tick(ms, maxEvents);
    return { advancedMs, nowMs: s.now, view: s.view(eventCursor) };
  },
  async view(id, eventCursor) {
    const s = sessionOf(id);
    return { nowMs: s.now, view: s.view(eventCursor) };
  },
  async rewindTo(id, targetMs) {
    const s = sessionOf(id);
    await s.rewindTo(targetMs);
    return { nowMs: s.now };
  },
  async restart(id) {
    const session = await LiveSession.open(scenarios.get(id)!);
    sessions.set(id, session);
    return { nowMs: session.now };
  },
  async inputs(id) {
    return [...sessionOf(id).inputs()];
  },
  async schedulerDecision(id, namespace, name) {
    return sessionOf(id).schedulerDecision(namespace, name);
  },
  async trace(id, requestId) {
    return sessionOf(id).trace(requestId);
  },
};

Comlink.expose(api);
