import type { ImageRecord } from '../events/images.js';
import type { ExportEntry, ExportEntryOf, ExportToolCall, SessionExport } from './export-schema.js';
import {
  callMark,
  callSummary,
  commandOutputParts,
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
import { escapeMarkdown, inertMarkdown } from './inert-markdown.js';

/**
 * A session export as markdown: `# <title>`, then `## Goal`, `## Plan`, one `## Run n` per run
 * (its steps as `### Step n`, tool calls as `#### ✓ name`, questions, the final answer) and
 * `## Tokens`. What people and tools wrote (outputs, commands, diffs) goes in code fences longer
 * than any backtick run inside, so it cannot end its fence; the model's own text stays markdown,
 * with its raw HTML and images made plain text (inert-markdown.ts): a viewer loads and runs nothing.
 */
export function renderMarkdown(document: SessionExport): string {
  const out: string[] = [];
  const { session } = document;
  out.push(`# ${inline(session.title)}`, '');
  out.push(
    `- **Session:** ${code(session.id)}`,
    `- **Workspace:** ${code(session.workspace)}`,
    `- **Model:** ${code(session.model)}`,
    `- **Status:** ${inline(sessionStatusText(document))}`,
    `- **Started:** ${timeText(session.created_at)} · **last active:** ${timeText(session.updated_at)}`,
    `- **Runs:** ${document.runs.length}`,
    `- **Usage:** ${usageText(document.usage)}`,
    `- **Exported:** ${timeText(document.exported_at)}`,
    '',
  );
  out.push('## Goal', '', quote(session.goal), '');
  document.plans.forEach((plan, index) => {
    out.push(document.plans.length === 1 ? '## Plan' : `## Plan ${index + 1}`, '');
    out.push(`${plan.tasks.length} task${plan.tasks.length === 1 ? '' : 's'} · ${inline(plan.status)}`, '');
    if (plan.feedback) out.push(`Feedback: ${inline(plan.feedback)}`, '');
    out.push('| Task | Title | Depends on | State | Result |', '|---|---|---|---|---|');
    for (const task of plan.tasks)
      out.push(
        `| ${cell(task.id)} | ${cell(task.title)} | ${cell(task.depends_on.join(', ') || '—')} | ${cell(task.state)} | ${cell(task.summary ?? task.reason ?? '')} |`,
      );
    out.push('');
    for (const task of plan.tasks) {
      const check = task.check ? ` (check: ${code(task.check)})` : '';
      out.push(`- **${inline(task.id)}**: ${inline(task.description)}${check}`);
    }
    out.push('');
  });
  document.runs.forEach((run, index) => {
    out.push(`## Run ${index + 1}: ${STATUS_TEXT[run.status] ?? inline(run.status)}`, '');
    if (run.goal !== session.goal) out.push(`Goal: ${inline(run.goal)}`, '');
    const ended = run.ended_at === undefined ? '' : `, ended ${timeText(run.ended_at)}`;
    out.push(
      `${code(run.model)} · ${run.loop} · ${runModeText(document, run)} · up to ${run.max_steps} steps · started ${timeText(run.started_at)}${ended} · ${usageText(run.usage)}`,
      '',
    );
    for (const entry of document.timeline) if (entry.run_id === run.run_id) out.push(...entryLines(entry));
  });
  out.push(
    '## Tokens',
    '',
    '| Run | Status | Input tokens | Output tokens | Cost |',
    '|---|---|---|---|---|',
  );
  document.runs.forEach((run, index) => {
    out.push(
      `| ${index + 1} | ${cell(run.status)} | ${run.usage.input_tokens} | ${run.usage.output_tokens} | ${run.usage.cost ?? '—'} |`,
    );
  });
  const total = document.usage;
  out.push(`| **All** | | ${total.input_tokens} | ${total.output_tokens} | ${total.cost ?? '—'} |`, '');
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

/**
 * The images of the user's message, named (a markdown file carries no bytes): type, size in
 * pixels and hash, which `GET /api/images/<hash>` serves.
 */
function imageLines(images: readonly ImageRecord[]): string[] {
  if (images.length === 0) return [];
  return [
    `**${images.length === 1 ? 'Image' : `${images.length} images`} attached:**`,
    '',
    ...images.map(
      (image) =>
        `- ${image.media_type.replace('image/', '').toUpperCase()} image, ${image.width}×${image.height}, ${code(`sha256:${image.hash}`)}`,
    ),
    '',
  ];
}

function entryLines(entry: ExportEntry): string[] {
  switch (entry.kind) {
    case 'goal':
      return imageLines(entry.images ?? []);
    case 'step':
      return stepLines(entry);
    case 'question':
      return [
        '### Question',
        '',
        quote(entry.question),
        '',
        entry.answer !== undefined
          ? `**Answer:** ${inline(entry.answer)}`
          : entry.timed_out
            ? '*No answer in time; the agent went on without one.*'
            : '*Not answered.*',
        '',
      ];
    case 'approval':
      return [
        `**Approval asked** for ${code(entry.name)}${entry.outcome ? `: ${inline(entry.outcome)}` : ''}`,
        '',
        fence(entry.preview, entry.preview.startsWith('@@') || entry.preview.includes('\n@@') ? 'diff' : ''),
        '',
      ];
    case 'failure':
      return [`**Task failed:** ${inline(entry.title)}: ${inline(entry.reason)}`, ''];
    case 'plan':
      return ['*Proposed the plan (see Plan above).*', ''];
    case 'task': {
      const mark =
        { completed: '✓', failed: '✗', in_progress: '▶', skipped: '↷', blocked: '⏸' }[entry.state] ?? '·';
      const state = entry.state === 'in_progress' ? 'started' : entry.state;
      return [
        `- ${mark} Task **${inline(entry.title)}** ${state}${entry.detail ? `: ${inline(entry.detail)}` : ''}`,
        '',
      ];
    }
    case 'notice':
      return [
        `> **${entry.tone === 'info' ? 'Note' : entry.tone === 'warning' ? 'Warning' : 'Error'}:** ${inline(entry.text)}`,
        '',
      ];
    case 'restore': {
      const files =
        entry.files.map((file) => `${inline(file.path)} (${file.action})`).join(', ') || 'no files';
      const conflicts = entry.conflicts.map(
        (conflict) => `${inline(conflict.path)}: ${inline(conflict.reason)}`,
      );
      return [
        `**${entry.restore_kind}** (${entry.mode}): ${files}${conflicts.length ? `; left alone: ${conflicts.join('; ')}` : ''}`,
        '',
      ];
    }
    case 'completion':
      return completionLines(entry);
  }
}

function stepLines(step: ExportEntryOf<'step'>): string[] {
  const out = [`### Step ${step.step}${step.task_title ? ` · ${inline(step.task_title)}` : ''}`, ''];
  out.push(`*${usageText(step.usage)}${step.rewound ? ' · its file changes were undone' : ''}*`, '');
  if (step.text.trim() !== '') out.push(inertMarkdown(step.text.trim()), '');
  if (step.reasoning) out.push('**Reasoning:**', '', quote(step.reasoning), '');
  if (step.observation) out.push('**Observation:**', '', quote(step.observation.content), '');
  for (const retry of step.retries)
    out.push(`> **Retry ${retry.attempt}** after ${retry.delay_ms} ms: ${inline(retry.error)}`, '');
  for (const note of step.notes) out.push(`> **Note:** ${inline(note)}`, '');
  for (const call of step.tool_calls) out.push(...callLines(call));
  if (step.refused_remaining !== undefined)
    out.push(
      `> **Final answer refused:** ${step.refused_remaining} task${step.refused_remaining === 1 ? '' : 's'} remained.`,
      '',
    );
  return out;
}

function callLines(call: ExportToolCall): string[] {
  const argument = mainArgument(call);
  const summary = callSummary(call);
  const head = `${callMark(call)} ${code(call.name)}${argument ? ` ${code(argument)}` : ''}${summary ? ` — ${inline(summary)}` : ''}`;
  if (SIGNAL_TOOLS.has(call.name)) return [`- ${head}`, ''];
  const out = [`#### ${head}`, ''];
  const shown = shownArguments(call);
  if (shown) out.push(`${inline(shown.label)}:`, '', ...block(shown.text, ''));
  const command = commandOutputParts(call);
  if (call.diff) out.push('Diff:', '', ...block(call.diff, 'diff'));
  else if (command) {
    if (command.status) out.push(inline(command.status), '');
    if (command.stdout) out.push('Output:', '', ...block(command.stdout, ''));
    if (command.stderr) out.push('Stderr:', '', ...block(command.stderr, ''));
    if (!command.stdout && !command.stderr) out.push('*No output.*', '');
  } else if (call.output !== undefined)
    out.push(call.status === 'error' ? 'Error:' : 'Output:', '', ...block(call.output, ''));
  if (call.subagent) {
    const child = call.subagent;
    out.push(
      inline(
        `Subagent ${child.agent} · ${child.status} · ${child.steps} steps · ${child.input_tokens} in / ${child.output_tokens} out tokens`,
      ),
      '',
      ...child.tool_calls.map((inner) => `- step ${inner.step}: ${inline(inner.name)} (${inner.status})`),
      '',
    );
  }
  return out;
}

function completionLines(entry: ExportEntryOf<'completion'>): string[] {
  const out: string[] = [];
  if (entry.final_answer) out.push('### Final answer', '', inertMarkdown(entry.final_answer.trim()), '');
  else out.push(`### Result: ${STATUS_TEXT[entry.status] ?? inline(entry.status)}`, '');
  if (entry.reason) out.push(`Reason: ${inline(entry.reason)}`, '');
  out.push(`*${entry.steps} step${entry.steps === 1 ? '' : 's'} · ${usageText(entry.usage)}*`, '');
  return out;
}

/** A text in a fence, cut to its first lines with a note when long. */
function block(text: string, language: string): string[] {
  const cut = cutOutput(text);
  return [fence(cut.text, language), '', ...(cut.hiddenLines > 0 ? [`*${cutNote(cut)}*`, ''] : [])];
}

/** A fenced code block whose fence no backtick run inside can close. */
export function fence(text: string, language = ''): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const marks = '`'.repeat(Math.max(3, longest + 1));
  return `${marks}${language}\n${text.replace(/\n$/, '')}\n${marks}`;
}

/** Inline code whose delimiters no backtick run inside can close (on one line). */
function code(text: string): string {
  const single = text.replace(/\s*\n\s*/g, ' ');
  const longest = Math.max(0, ...[...single.matchAll(/`+/g)].map((match) => match[0].length));
  const marks = '`'.repeat(longest + 1);
  const pad = single.startsWith('`') || single.endsWith('`') ? ' ' : '';
  return `${marks}${pad}${single}${pad}${marks}`;
}

/** Text on one line with markdown's special characters escaped: it reads as written. */
export function inline(text: string): string {
  return escapeMarkdown(text.replace(/\s*\n\s*/g, ' '));
}

function cell(text: string): string {
  return inline(text) || ' ';
}

/** A text as a block quote, each line quoted (an empty line stays inside the quote). */
function quote(text: string): string {
  return inertMarkdown(text.trim())
    .split('\n')
    .map((line) => (line.trim() === '' ? '>' : `> ${line}`))
    .join('\n');
}
