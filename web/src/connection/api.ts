import type {
  AddTaskBody,
  ApiAddedTask,
  ApiApplyOutcome,
  ApiCheckpoint,
  ApiCommands,
  ApiError,
  ApiGoalDiff,
  ApiHealth,
  ApiSession,
  ApiSessionDetail,
  ApiTask,
} from '../../../src/events/api.js';
import { accessToken } from './access-token.js';

/** The server's REST API (README, "Server"); every call carries the tab's token as `Authorization: Bearer`. */

/** A 4xx/5xx answer, with the server's code and message. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
  const token = accessToken();
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const parsed: unknown = text === '' ? {} : JSON.parse(text);
  if (!response.ok) {
    const error = (parsed as Partial<ApiError>).error;
    throw new ApiRequestError(
      response.status,
      error?.code ?? 'http_error',
      error?.message ?? response.statusText,
    );
  }
  return parsed as T;
}

/** The calls the web UI makes. */
export const api = {
  health: () => request<ApiHealth>('GET', '/api/health'),
  commands: () => request<ApiCommands>('GET', '/api/commands'),
  /** Most recently active first; `limit` of them when given. */
  sessions: (limit?: number) =>
    request<{ sessions: ApiSession[] }>(
      'GET',
      `/api/sessions${limit === undefined ? '' : `?limit=${limit}`}`,
    ),
  session: (id: string) => request<ApiSessionDetail>('GET', `/api/sessions/${encodeURIComponent(id)}`),
  checkpoints: (id: string) =>
    request<{ checkpoints: ApiCheckpoint[] }>('GET', `/api/sessions/${encodeURIComponent(id)}/checkpoints`),
  tasks: () => request<{ tasks: ApiTask[] }>('GET', '/api/tasks'),
  addTask: (body: AddTaskBody) => request<ApiAddedTask>('POST', '/api/tasks', body),
  completeTask: (id: string) =>
    request<{ task: ApiTask }>('POST', `/api/tasks/${encodeURIComponent(id)}/complete`, {}),
  cancelTask: (id: string) =>
    request<{ task: ApiTask }>('POST', `/api/tasks/${encodeURIComponent(id)}/cancel`, {}),
  goalDiff: (id: string) => request<ApiGoalDiff>('GET', `/api/goals/${encodeURIComponent(id)}/diff`),
  applyGoal: (id: string) =>
    request<ApiApplyOutcome>('POST', `/api/goals/${encodeURIComponent(id)}/apply`, {}),
  deleteTask: (id: string) => request<{ task: ApiTask }>('DELETE', `/api/tasks/${encodeURIComponent(id)}`),
};
