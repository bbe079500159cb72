// What the checker needs to know about the object under test.
// mirrors the Model of anishathalye/porcupine (model.go), with a nondeterministic step so an
// operation whose outcome is unknown can branch.

/** One completed (or indeterminate) operation of a concurrent history. */
export interface Operation<I, O> {
  clientId: number;
  input: I;
  /** The observed output; models decide how to read an "unknown" output. */
  output: O;
  /** Simulated time the call was issued. */
  callMs: number;
  /** Simulated time the answer arrived; Infinity when it never did (may or may not have happened). */
  returnMs: number;
}

export interface Model<S, I, O> {
  init(): S;
  /** Every state the object may be in after applying `input` and answering `output` (none: illegal). */
  step(state: S, input: I, output: O): S[];
  /** A string that is equal for equal states (for the memoization cache). */
  stateKey(state: S): string;
  /** Independent sub-histories (e.g. one per key); the whole is linearizable iff each part is. */
  partition?(history: Operation<I, O>[]): Operation<I, O>[][];
  describe(input: I, output: O): string;
}
