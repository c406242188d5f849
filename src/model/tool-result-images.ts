import type {
  LanguageModelV3FilePart,
  LanguageModelV3Prompt,
  LanguageModelV3TextPart,
} from '@ai-sdk/provider';

/*
 * A tool result's image (read_file of an image file) for providers whose tool messages carry
 * text only: Chat Completions (OpenAI-compatible servers, Ollama) would spell the image's base64
 * out as JSON text in the tool message. There the tool message keeps the result's text and the
 * image follows in a user message, as a user's image is sent.
 */

/** Whether a provider's tool messages carry text only (the AI SDK's Chat Completions models). */
export function toolMessagesAreTextOnly(provider: string): boolean {
  return provider.endsWith('.chat');
}

/** The prompt with each tool result's images moved to a user message after its tool message; the same prompt when none has one. */
export function toolImagesAsUserMessages(prompt: LanguageModelV3Prompt): LanguageModelV3Prompt {
  if (!prompt.some((message) => message.role === 'tool' && message.content.some(hasImage))) return prompt;
  const result: LanguageModelV3Prompt = [];
  for (const message of prompt) {
    if (message.role !== 'tool' || !message.content.some(hasImage)) {
      result.push(message);
      continue;
    }
    const shown: (LanguageModelV3TextPart | LanguageModelV3FilePart)[] = [];
    const content = message.content.map((part) => {
      if (part.type !== 'tool-result' || part.output.type !== 'content') return part;
      const texts: string[] = [];
      const files: LanguageModelV3FilePart[] = [];
      for (const item of part.output.value) {
        if (item.type === 'text') texts.push(item.text);
        else if (item.type === 'image-data' || item.type === 'file-data')
          files.push({ type: 'file', data: item.data, mediaType: item.mediaType });
      }
      if (files.length > 0)
        shown.push({ type: 'text', text: `The image ${part.toolName} returned:` }, ...files);
      return { ...part, output: { type: 'text' as const, value: texts.join('\n') } };
    });
    result.push({ ...message, content });
    if (shown.length > 0) result.push({ role: 'user', content: shown });
  }
  return result;
}

function hasImage(part: LanguageModelV3Prompt[number]['content'][number]): boolean {
  return (
    typeof part === 'object' &&
    part.type === 'tool-result' &&
    part.output.type === 'content' &&
    part.output.value.some((item) => item.type === 'image-data' || item.type === 'file-data')
  );
}
