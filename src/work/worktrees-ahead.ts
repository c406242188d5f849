/**
 * The worktrees a runtime is making ahead of their goals (while a plan waits for approval): a
 * goal's pool waits for them before it looks at its folder, so that it never sees one half made.
 * One instance per runtime (its runs share the repository), handed down in the run's isolation
 * settings: two runtimes in one process (tests, `work --repo` over several clones) wait only for
 * their own.
 */
export class WorktreesAhead {
  private readonly making = new Set<Promise<void>>();
  /** Goal folder → the slot folders made ahead there in this process, each clean and detached. */
  private readonly made = new Map<string, string[]>();

  /**
   * Runs `work` (making a worktree ahead of its goal) as one the pools wait for; registered at
   * once, before any await, so that a goal opened right after still sees it.
   */
  run(work: () => Promise<void>): Promise<void> {
    const ready = work();
    const settled = ready.catch(() => {});
    this.making.add(settled);
    void settled.then(() => this.making.delete(settled));
    return ready;
  }

  /** Resolves once the worktrees being made ahead now are made (or failed). */
  async done(): Promise<void> {
    await Promise.all(this.making);
  }

  /** Says that every slot of `goalFolder` was made ahead here: `slots`, clean, detached, registered. */
  record(goalFolder: string, slots: readonly string[]): void {
    this.made.set(goalFolder, [...slots]);
  }

  /**
   * The slots made ahead in `goalFolder` by this process (once: the record is taken), so that the
   * goal's pool need not ask git what the folder holds; undefined when none were, or they failed.
   */
  take(goalFolder: string): string[] | undefined {
    const slots = this.made.get(goalFolder);
    this.made.delete(goalFolder);
    return slots;
  }
}
