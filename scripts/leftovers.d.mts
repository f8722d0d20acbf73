// Types of leftovers.mjs (plain JS: runTests.mjs runs it before anything is built).
export declare const RUN_MARKER: 'LETAGENTS_TEST_RUN';
export interface RunProcess {
  readonly pid: number;
  readonly args: string;
}
export declare function processesOfRun(runId: string): RunProcess[];
export declare function endProcessesOfRun(runId: string, graceMs?: number): Promise<RunProcess[]>;
