/**
 * Pasted text kept whole in the prompt: a paste of several lines shows as one short label,
 * `[Pasted text #1 +12 lines]` (as Claude Code and Codex show it), that stands for the text
 * until the line is sent; the label can be deleted or moved like any other text.
 */
export class PasteBlocks {
  private count = 0;
  private readonly blocks = new Map<string, string>();

  /** The text to insert for a paste: itself when it is one line, else a label standing for it. */
  insert(pasted: string): string {
    const text = pasted.replace(/\r\n?/g, '\n');
    if (!text.includes('\n')) return text;
    const lines = text.replace(/\n+$/, '').split('\n').length;
    this.count += 1;
    const label = `[Pasted text #${this.count} +${lines} lines]`;
    this.blocks.set(label, text.replace(/\n+$/, ''));
    return label;
  }

  /**
   * What puts the pasted texts back into a line as sent: every label still in it replaced by the
   * text it stands for (the pastes as they are now, whatever is pasted later).
   */
  expander(): (line: string) => string {
    const blocks = [...this.blocks];
    return (line) => {
      let expanded = line;
      for (const [label, text] of blocks) expanded = expanded.split(label).join(text);
      return expanded;
    };
  }

  /** Forgets the pastes of the last message (the count goes on, so labels never repeat). */
  clear(): void {
    this.blocks.clear();
  }
}
