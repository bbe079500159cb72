// Glossary terms introduced by chapter 4, "etcd and Raft, the cluster's memory".
import type { GlossaryEntry } from '../glossary.ts';

const ch = (anchor: string) => ({ chapter: '04-etcd-raft', anchor });

export const TERMS: GlossaryEntry[] = [
  {
    id: 'registry-key',
    term: 'Registry key',
    definition:
      'The etcd key under which the API server stores an object: `/registry/<resource>/<namespace>/<name>`, or `/registry/<resource>/<name>` for cluster-scoped objects. A few prefixes keep historical names, such as `/registry/minions` for Nodes.',
    see: [{ chapter: '04-etcd-raft', anchor: 'what-kubernetes-keeps-under-registry' }],
  },
  {
    id: 'etcd-revision',
    term: 'Revision (etcd)',
    definition:
      'etcd’s store-wide counter, increased by one on every write. Each key also records its `create_revision`, its `mod_revision` (the revision of its last change, which Kubernetes reports as the object’s resourceVersion) and its `version`, the number of writes since it was created.',
    see: [ch('revisions-etcd-remembers-every-change')],
  },
  {
    id: 'compaction',
    term: 'Compaction (etcd)',
    definition:
      'Discarding the versions of keys older than a given revision that have since been superseded; current values stay. Reading or watching a compacted revision fails with “required revision has been compacted”; the API server compacts every five minutes.',
    see: [ch('compaction-forgetting-on-purpose')],
  },
  {
    id: 'etcd-member',
    term: 'etcd member',
    definition:
      'One etcd process with a full copy of the data, taking part in Raft with the others. Members talk to each other on a peer URL (port 2380) and serve clients such as the API server on a client URL (port 2379).',
    see: [ch('raft-how-three-machines-agree')],
  },
  {
    id: 'raft-leader',
    term: 'Leader (Raft)',
    definition:
      'The one member per term that takes every write, appends it to its log and replicates it to the followers. A follower that stops hearing the leader’s heartbeats for an election timeout starts an election for a new term.',
    see: [ch('leader-terms-and-the-log'), ch('a-leader-goes-missing')],
  },
  {
    id: 'raft-log',
    term: 'Raft log',
    definition:
      'The ordered list of entries (index, term, request) that every member keeps on disk. The leader sends new entries to the followers, and an entry is applied to the key-value store only once it is committed.',
    see: [ch('leader-terms-and-the-log')],
  },
  {
    id: 'commit-index',
    term: 'Commit index',
    definition:
      'The highest log index known to be stored by a majority of members. Entries up to it are committed: they survive any future election, are applied to every member’s store, and their writes are acknowledged to clients.',
    see: [ch('leader-terms-and-the-log')],
  },
  {
    id: 'pre-vote',
    term: 'Pre-vote and check quorum',
    definition:
      'Two etcd safeguards around Raft elections. With pre-vote a member asks whether it could win before raising its term, so a member returning from a partition cannot force a needless election; with check quorum a leader that has not heard from a majority steps down.',
    see: [ch('leader-terms-and-the-log')],
  },
  {
    id: 'linearizable-read',
    term: 'Linearizable read',
    definition:
      'etcd’s default read, guaranteed to reflect every write acknowledged before it started: the serving member confirms the current commit index with the leader and a majority first. It fails without a quorum.',
    see: [ch('leader-terms-and-the-log'), ch('two-members-down-no-quorum')],
  },
  {
    id: 'serializable-read',
    term: 'Serializable read',
    definition:
      'A read answered from one member’s local copy without consulting the leader (`etcdctl get --consistency=s`). It is fast and works without a quorum, but may return data older than the latest write.',
    see: [ch('two-members-down-no-quorum')],
  },
  {
    id: 'etcd-restore',
    term: 'etcd restore',
    definition:
      'Rebuilding etcd from a snapshot with `etcdutl snapshot restore`, once per member from the same file, into new data directories that start as a new cluster, while every API server is stopped. For Kubernetes, `--bump-revision` and `--mark-compacted` make every client relist instead of trusting resourceVersions from before the restore.',
    see: [ch('restoring')],
  },
];
