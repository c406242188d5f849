/**
 * Whether the user asked the process to stop: runs start stopped and workers end once it is
 * set. One per runtime, read by its worker; set only by the runtime's `stop()`.
 */
export class StopRequest {
  private stopping = false;

  get requested(): boolean {
    return this.stopping;
  }

  request(): void {
    this.stopping = true;
  }
}
