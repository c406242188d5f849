import type { z } from 'zod';
import { describeIssues } from '../util/describe-issues.js';
import { redactSecrets } from '../util/redact-secrets.js';
import { truncateMiddle } from './text/truncate.js';
import type { Tool, ToolContext, ToolResult, ToolSpec } from './types.js';

/**
 * Builds a tool from its spec. Validation, error-to-result conversion, timing, the redaction of
 * secrets (provider keys, passwords in URLs) and output truncation live here, once: an invalid call or a thrown error becomes an error result the
 * model can act on, never a crash.
 */
export function defineTool<Params extends z.ZodType>(spec: ToolSpec<Params>): Tool {
  const description = `${spec.description}\n\nWhen to use: ${spec.whenToUse}\nWhen not to use: ${spec.whenNotToUse}`;
  return {
    name: spec.name,
    description,
    parameters: spec.parameters,
    readOnly: spec.readOnly,
    changes: spec.changes ?? 'none',
    ...(spec.offeredWhen === undefined ? {} : { offeredWhen: spec.offeredWhen }),
    async preview(rawArgs: unknown, ctx: ToolContext) {
      const parsed = spec.parameters.safeParse(rawArgs);
      if (!parsed.success) return undefined;
      if (!spec.preview) return JSON.stringify(parsed.data, null, 2);
      try {
        return truncateMiddle(redactSecrets(await spec.preview(parsed.data, ctx)));
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return `(no preview: ${message})`;
      }
    },
    async run(rawArgs: unknown, ctx: ToolContext) {
      const started = performance.now();
      // A key or a URL's password a command printed or a file held is neither stored, shown nor sent to the model.
      const redactingCtx: ToolContext = {
        ...ctx,
        progress: (message) => ctx.progress(redactSecrets(message)),
      };
      const { effect, ...result } = await execute(spec, rawArgs, redactingCtx);
      return {
        ...result,
        output: truncateMiddle(redactSecrets(result.output)),
        ...(result.display === undefined ? {} : { display: redactSecrets(result.display) }),
        durationMs: Math.round(performance.now() - started),
        // A control effect counts only when the call succeeded.
        ...(effect && !result.isError ? { effect } : {}),
      };
    },
  };
}

async function execute<Params extends z.ZodType>(
  spec: ToolSpec<Params>,
  rawArgs: unknown,
  ctx: ToolContext,
): Promise<ToolResult> {
  const parsed = spec.parameters.safeParse(rawArgs);
  if (!parsed.success) {
    const problems = `- ${describeIssues(parsed.error, '\n- ')}`;
    return {
      output: `The ${spec.name} tool was called with invalid arguments:\n${problems}\nRewrite the input so that it satisfies the schema.`,
      // For the user, on one line: what was wrong, not the instruction to the model.
      display: `invalid arguments: ${describeIssues(parsed.error, '; ').replaceAll('Invalid input: ', '')}`,
      isError: true,
    };
  }
  try {
    return await spec.execute(parsed.data, ctx);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { output: `${spec.name} failed: ${message}`, isError: true };
  }
}
