/*
 * The Web-Bench suite's face: what the eval command uses to list the projects, run the suite and
 * show its results. Other layers import this file, never a file of this room.
 */
export { evaluateWebBench, planProjects } from './evaluate-web-bench.js';
export { discoverProjects, scoredTasks } from './project.js';
export { webBenchScriptKind } from './project-script.js';
export { WEB_BENCH_COLUMNS, webBenchCells } from './web-bench-cells.js';
export { webBenchReport } from './web-bench-report.js';
export { webBenchSummary } from './web-bench-summary.js';
