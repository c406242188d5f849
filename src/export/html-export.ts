import { createHash } from 'node:crypto';
import type { ExportEntry, ExportEntryOf, ExportToolCall, SessionExport } from './export-schema.js';
import {
  callMark,
  callSummary,
  cutNote,
  cutOutput,
  mainArgument,
  runModeText,
  SIGNAL_TOOLS,
  STATUS_TEXT,
  sessionStatusText,
  shownArguments,
  timeText,
  usageText,
} from './export-text.js';
import { type ImageBytes, messageImagesHtml } from './html-images.js';
import { markdownToHtml } from './html-markdown.js';
import { EXPORT_CSS } from './html-style.js';
import { escapeHtml as h } from './html-text.js';

/**
 * The page's Content-Security-Policy: nothing may load or run; only its own style sheet (by its
 * hash) applies. A script or a fetch that slipped past the escaping would still be refused.
 */
export function exportContentPolicy(): string {
  const styleHash = createHash('sha256').update(EXPORT_CSS).digest('base64');
  return [
    "default-src 'none'",
    "script-src 'none'",
    `style-src 'sha256-${styleHash}'`,
    // Only the images embedded in the page itself (a session's attached images).
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/**
 * A session export as one self-contained HTML page: inline CSS, no script, no outside resource,
 * readable offline. Every text from the session is escaped; the model's markdown goes through
 * markdownToHtml; tool outputs sit in closed `<details>`, cut to their first lines with a note.
 * The images attached to the user's messages are embedded from `images` (their stored bytes).
 */
export function renderHtml(document: SessionExport, options: { images?: ImageBytes } = {}): string {
  const { session } = document;
  const out: string[] = [];
  out.push(
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${h(exportContentPolicy())}">`,
    '<meta name="referrer" content="no-referrer">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta name="generator" content="taskweave sessions export">`,
    `<title>${h(session.title)} · taskweave session</title>`,
    `<style>${EXPORT_CSS}</style>`,
    '</head>',
    '<body>',
    '<header>',
    `<h1>${h(session.title)}</h1>`,
    '<dl class="facts">',
    fact('Session', `<code>${h(session.id)}</code>`),
    fact('Workspace', `<code>${h(session.workspace)}</code>`),
    fact('Model', `<code>${h(session.model)}</code>`),
    fact('Status', h(sessionStatusText(document))),
    fact('Started', `${h(timeText(session.created_at))} · last active ${h(timeText(session.updated_at))}`),
    fact('Runs', String(document.runs.length)),
    fact('Usage', h(usageText(document.usage))),
    fact('Exported', h(timeText(document.exported_at))),
    '</dl>',
    '</header>',
    '<main>',
    '<section id="goal"><h2>Goal</h2>',
    `<div class="goal">${h(session.goal)}</div>`,
    '</section>',
  );
  document.plans.forEach((plan, index) => {
    out.push(
      `<section class="plan" id="plan-${index + 1}"><h2>${document.plans.length === 1 ? 'Plan' : `Plan ${index + 1}`}</h2>`,
      `<p class="muted">${plan.tasks.length} task${plan.tasks.length === 1 ? '' : 's'} · ${h(plan.status)}${plan.feedback ? ` · feedback: ${h(plan.feedback)}` : ''}</p>`,
      '<table><thead><tr><th>Task</th><th>Title and description</th><th>Depends on</th><th>State</th><th>Result</th></tr></thead><tbody>',
      ...plan.tasks.map(
        (task) =>
          `<tr><td><code>${h(task.id)}</code></td><td><strong>${h(task.title)}</strong><br><span class="small">${h(task.description)}</span>${task.check ? `<br><span class="small muted">check: <code>${h(task.check)}</code></span>` : ''}</td>` +
          `<td>${h(task.depends_on.join(', ') || '—')}</td><td>${state(task.state)}</td><td>${h(task.summary ?? task.reason ?? '')}</td></tr>`,
      ),
      '</tbody></table>',
      '</section>',
    );
  });
  document.runs.forEach((run, index) => {
    const ended = run.ended_at === undefined ? '' : `, ended ${timeText(run.ended_at)}`;
    out.push(
      `<section class="run" id="run-${index + 1}"><h2>Run ${index + 1}: ${h(STATUS_TEXT[run.status] ?? run.status)}</h2>`,
      run.goal !== session.goal ? `<div class="goal">${h(run.goal)}</div>` : '',
      `<p class="muted small"><code>${h(run.model)}</code> · ${h(run.loop)} · ${h(runModeText(document, run))} · up to ${run.max_steps} steps · started ${h(timeText(run.started_at))}${h(ended)} · ${h(usageText(run.usage))}</p>`,
      ...document.timeline
        .filter((entry) => entry.run_id === run.run_id)
        .map((entry) => entryHtml(entry, options.images)),
      '</section>',
    );
  });
  out.push(
    '<section id="tokens"><h2>Tokens</h2>',
    '<table><thead><tr><th>Run</th><th>Status</th><th>Input tokens</th><th>Output tokens</th><th>Cost</th></tr></thead><tbody>',
    ...document.runs.map(
      (run, index) => `<tr><td>${index + 1}</td><td>${h(run.status)}</td>${figures(run.usage)}</tr>`,
    ),
    `<tr><th>All</th><th></th>${figures(document.usage)}</tr>`,
    '</tbody></table>',
    '</section>',
    '</main>',
    '</body>',
    '</html>',
  );
  return `${out.filter((line) => line !== '').join('\n')}\n`;
}

function fact(name: string, html: string): string {
  return `<dt>${name}</dt><dd>${html}</dd>`;
}

function figures(usage: SessionExport['usage']): string {
  const number = (value: number) => `<td class="number">${value.toLocaleString('en')}</td>`;
  return `${number(usage.input_tokens)}${number(usage.output_tokens)}<td class="number">${usage.cost === undefined ? '—' : usage.cost}</td>`;
}

function state(name: string): string {
  return `<span class="state state-${h(name)}">${h(name.replace('_', ' '))}</span>`;
}

function entryHtml(entry: ExportEntry, images: ImageBytes | undefined): string {
  switch (entry.kind) {
    case 'goal':
      // The goal's text is the run's heading; what the message adds is its images.
      return messageImagesHtml(entry.images ?? [], images);
    case 'step':
      return stepHtml(entry);
    case 'question':
      return (
        `<div class="card question"><h3>Question</h3><div class="text">${markdownToHtml(entry.question)}</div>` +
        (entry.answer !== undefined
          ? `<p class="answer"><strong>Answer:</strong> ${h(entry.answer)}</p>`
          : `<p class="note">${entry.timed_out ? 'No answer in time; the agent went on without one.' : 'Not answered.'}</p>`) +
        '</div>'
      );
    case 'approval':
      return `<div class="card approval"><p><strong>Approval asked</strong> for <code>${h(entry.name)}</code>${entry.outcome ? `: ${h(entry.outcome)}` : ''}</p>${pre(entry.preview, /^@@/m.test(entry.preview))}</div>`;
    case 'failure':
      return `<div class="notice notice-error"><strong>Task failed:</strong> ${h(entry.title)}: ${h(entry.reason)}</div>`;
    case 'plan':
      return '<p class="muted">Proposed the plan (see Plan above).</p>';
    case 'task': {
      const verb = entry.state === 'in_progress' ? 'started' : entry.state;
      return `<p class="task-line">${state(entry.state)} Task <strong>${h(entry.title)}</strong> ${h(verb)}${entry.detail ? `: ${h(entry.detail)}` : ''}</p>`;
    }
    case 'notice':
      return `<div class="notice notice-${entry.tone}">${h(entry.text)}</div>`;
    case 'restore': {
      const files = entry.files.map((file) => `${file.path} (${file.action})`).join(', ') || 'no files';
      const conflicts = entry.conflicts.map((conflict) => `${conflict.path}: ${conflict.reason}`).join('; ');
      return `<div class="notice"><strong>${h(entry.restore_kind)}</strong> (${h(entry.mode)}): ${h(files)}${conflicts ? `; left alone: ${h(conflicts)}` : ''}</div>`;
    }
    case 'completion':
      return completionHtml(entry);
  }
}

function stepHtml(step: ExportEntryOf<'step'>): string {
  const out = [
    `<article class="card step"><div class="step-head"><h3>Step ${step.step}${step.task_title ? ` · ${h(step.task_title)}` : ''}</h3>`,
    `<span class="muted small">${h(usageText(step.usage))}${step.rewound ? ' · its file changes were undone' : ''}</span></div>`,
  ];
  if (step.text.trim() !== '') out.push(`<div class="text">${markdownToHtml(step.text)}</div>`);
  if (step.reasoning) out.push(`<h4>Reasoning</h4><div class="text">${markdownToHtml(step.reasoning)}</div>`);
  if (step.observation)
    out.push(`<h4>Observation</h4><div class="text">${markdownToHtml(step.observation.content)}</div>`);
  for (const retry of step.retries)
    out.push(`<p class="note">Retry ${retry.attempt} after ${retry.delay_ms} ms: ${h(retry.error)}</p>`);
  for (const note of step.notes) out.push(`<p class="note">Note: ${h(note)}</p>`);
  out.push(...step.tool_calls.map(callHtml));
  if (step.refused_remaining !== undefined)
    out.push(
      `<p class="note">Final answer refused: ${step.refused_remaining} task${step.refused_remaining === 1 ? '' : 's'} remained.</p>`,
    );
  out.push('</article>');
  return out.join('\n');
}

function callHtml(call: ExportToolCall): string {
  const argument = mainArgument(call);
  const summary = callSummary(call);
  const head =
    `<div class="tool-head"><span class="mark">${callMark(call)}</span> <code>${h(call.name)}</code>` +
    `${argument ? ` <code class="muted">${h(argument)}</code>` : ''}${summary ? ` <span class="muted small">· ${h(summary)}</span>` : ''}</div>`;
  const out = [`<div class="tool tool-${call.status}">`, head];
  if (!SIGNAL_TOOLS.has(call.name)) {
    const shown = shownArguments(call);
    if (shown) out.push(collapsed(shown.label, shown.text, false));
    if (call.diff) out.push(collapsed('diff', call.diff, true, true));
    else if (call.output !== undefined)
      out.push(
        collapsed(call.status === 'error' ? 'error' : 'output', call.output, false, call.status === 'error'),
      );
  }
  out.push('</div>');
  return out.join('\n');
}

function completionHtml(entry: ExportEntryOf<'completion'>): string {
  const out = ['<article class="card completion">'];
  if (entry.final_answer)
    out.push('<h3>Final answer</h3>', `<div class="text answer">${markdownToHtml(entry.final_answer)}</div>`);
  else out.push(`<h3>Result: ${h(STATUS_TEXT[entry.status] ?? entry.status)}</h3>`);
  if (entry.reason) out.push(`<p>Reason: ${h(entry.reason)}</p>`);
  out.push(
    `<p class="muted small">${entry.steps} step${entry.steps === 1 ? '' : 's'} · ${h(usageText(entry.usage))}</p>`,
    '</article>',
  );
  return out.join('\n');
}

/** A text in a `<details>`, cut to its first lines (with a note saying how much is left out). */
function collapsed(label: string, text: string, diff: boolean, open = false): string {
  const cut = cutOutput(text);
  const lines = `${cut.totalLines} line${cut.totalLines === 1 ? '' : 's'}`;
  return (
    `<details${open ? ' open' : ''}><summary>${h(label)} (${lines})</summary>` +
    pre(cut.text, diff) +
    (cut.hiddenLines > 0 ? `<p class="cut">${h(cutNote(cut))}</p>` : '') +
    '</details>'
  );
}

/** Preformatted text; a diff's added, removed and hunk lines marked. */
function pre(text: string, diff: boolean): string {
  if (!diff) return `<pre>${h(text)}</pre>`;
  const lines = text.split('\n').map((line) => {
    const kind = line.startsWith('+')
      ? 'diff-add'
      : line.startsWith('-')
        ? 'diff-remove'
        : line.startsWith('@@')
          ? 'diff-hunk'
          : '';
    return kind ? `<span class="${kind}">${h(line)}</span>` : `${h(line)}\n`;
  });
  return `<pre>${lines.join('')}</pre>`;
}
