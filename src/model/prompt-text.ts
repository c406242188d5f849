import { createHash } from 'node:crypto';
import type { LanguageModelV3Prompt, LanguageModelV3ToolResultOutput } from '@ai-sdk/provider';

/**
 * All the text of a prompt, one piece per line: system messages, user and assistant text, and
 * the output of tool results. The script model matches `when` against it.
 */
export function promptText(prompt: LanguageModelV3Prompt): string {
  const pieces: string[] = [];
  for (const message of prompt) {
    if (message.role === 'system') {
      pieces.push(message.content);
      continue;
    }
    for (const part of message.content) {
      if (part.type === 'text') pieces.push(part.text);
      else if (part.type === 'file') pieces.push(fileText(part.mediaType, part.data));
      else if (part.type === 'tool-result') pieces.push(toolOutputText(part.output));
    }
  }
  return pieces.join('\n');
}

/** A file part (an image) as a line naming its type and the sha256 of its bytes, never the bytes. */
function fileText(mediaType: string, data: Uint8Array | string | URL): string {
  if (data instanceof URL) return `[file ${mediaType} ${data.href}]`;
  const bytes = typeof data === 'string' ? Buffer.from(data, 'base64') : data;
  return `[file ${mediaType} sha256:${createHash('sha256').update(bytes).digest('hex')}]`;
}

function toolOutputText(output: LanguageModelV3ToolResultOutput): string {
  switch (output.type) {
    case 'text':
    case 'error-text':
      return output.value;
    case 'json':
    case 'error-json':
      return JSON.stringify(output.value);
    case 'execution-denied':
      return output.reason ?? 'execution denied';
    case 'content':
      return output.value
        .flatMap((item) =>
          item.type === 'text'
            ? [item.text]
            : 'data' in item && 'mediaType' in item
              ? [fileText(item.mediaType, item.data)]
              : [],
        )
        .join('\n');
  }
}
