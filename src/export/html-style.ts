/**
 * The export page's style sheet, inlined in its `<style>` (the page loads nothing): light and
 * dark by the reader's setting, readable printed.
 */
export const EXPORT_CSS = `
:root { color-scheme: light dark; --fg: #1d2330; --muted: #5d6675; --bg: #ffffff; --card: #f5f7fa;
  --line: #d8dde5; --accent: #2458c6; --ok: #1a7f37; --bad: #c0392b; --warn: #9a6700;
  --add: #e6ffec; --remove: #ffebe9; --hunk: #ddf4ff; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6e9ef; --muted: #9aa3b2; --bg: #14171c; --card: #1d2128; --line: #323945;
    --accent: #7aa7ff; --ok: #56d364; --bad: #ff7b72; --warn: #e3b341;
    --add: #12361f; --remove: #3d1618; --hunk: #0c2d4a; }
}
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 60rem; padding: 1.5rem; font: 15px/1.5 system-ui, sans-serif;
  color: var(--fg); background: var(--bg); }
h1 { font-size: 1.6rem; margin: 0 0 .5rem; overflow-wrap: anywhere; }
h2 { font-size: 1.25rem; margin: 2rem 0 .75rem; padding-bottom: .25rem; border-bottom: 1px solid var(--line); }
h3 { font-size: 1.05rem; margin: 1.25rem 0 .5rem; }
h4, h5, h6 { font-size: 1rem; margin: .75rem 0 .25rem; }
.muted { color: var(--muted); }
.small { font-size: .85rem; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem; margin: 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.goal { border-left: 4px solid var(--accent); padding: .5rem 1rem; background: var(--card); white-space: pre-wrap;
  overflow-wrap: anywhere; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: .75rem 1rem; margin: .75rem 0; background: var(--card); }
.card > :first-child { margin-top: 0; }
.step-head { display: flex; flex-wrap: wrap; gap: .5rem; align-items: baseline; }
.step-head h3 { margin: 0 0 .25rem; }
.text > :first-child { margin-top: 0; }
.text > :last-child { margin-bottom: 0; }
.tool { border-top: 1px solid var(--line); margin-top: .6rem; padding-top: .4rem; }
.tool-head code { font-weight: 600; }
.tool-ok .mark { color: var(--ok); }
.tool-error .mark { color: var(--bad); }
.tool-running .mark { color: var(--warn); }
details > summary { cursor: pointer; color: var(--muted); font-size: .9rem; }
pre { margin: .35rem 0; padding: .5rem .75rem; background: var(--bg); border: 1px solid var(--line); border-radius: 4px;
  overflow-x: auto; font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, monospace; white-space: pre-wrap; overflow-wrap: anywhere; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .92em; }
.diff-add { background: var(--add); display: block; }
.diff-remove { background: var(--remove); display: block; }
.diff-hunk { background: var(--hunk); display: block; color: var(--muted); }
.cut { color: var(--warn); font-size: .85rem; margin: .25rem 0; }
.note { color: var(--warn); }
.notice { padding: .4rem .75rem; border-left: 3px solid var(--line); margin: .5rem 0; }
.notice-warning { border-color: var(--warn); }
.notice-error { border-color: var(--bad); }
.task-line { margin: .35rem 0; }
.state { white-space: nowrap; display: inline-block; padding: 0 .45rem; border-radius: 999px; font-size: .8rem; border: 1px solid var(--line); }
.state-completed { color: var(--ok); border-color: var(--ok); }
.state-failed, .state-blocked, .state-cancelled { color: var(--bad); border-color: var(--bad); }
.state-in_progress, .state-pending, .state-skipped { color: var(--muted); }
.answer { border-left: 4px solid var(--ok); }
table { border-collapse: collapse; margin: .5rem 0; width: 100%; }
th, td { border: 1px solid var(--line); padding: .3rem .5rem; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
th { background: var(--card); }
td > code { white-space: nowrap; }
td.number { text-align: right; font-variant-numeric: tabular-nums; }
blockquote { margin: .5rem 0; padding-left: .75rem; border-left: 3px solid var(--line); color: var(--muted); }
.raw-html, .image { color: var(--muted); }
.message-images { display: flex; flex-wrap: wrap; gap: .75rem; margin: .5rem 0; }
.message-images figure { margin: 0; max-width: 100%; }
.message-images img { display: block; max-width: 100%; height: auto; border: 1px solid var(--line); border-radius: 4px; }
.message-images figcaption { color: var(--muted); font-size: .85rem; }
a { color: var(--accent); }
@media print { details { display: block; } details > :not(summary) { display: block; } }
`;
