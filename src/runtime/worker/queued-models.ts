import { resolveModel } from '../../config/resolve-model.js';
import type { ResolvedModel } from '../../model/types.js';
import type { QueuedSettings } from './queued-settings.js';

/**
 * The models of goals queued with another model than this process's, resolved as if given by
 * `--model` (and `--base-url`), once per model and base URL for the runtime's life.
 */
export class QueuedModels {
  private readonly models = new Map<string, Promise<ResolvedModel>>();

  constructor(private readonly where: { cwd: string; env: NodeJS.ProcessEnv }) {}

  /** The model a task queued with `settings` runs with. */
  modelFor(settings: QueuedSettings): Promise<ResolvedModel> {
    const key = `${settings.model} ${settings.baseUrl ?? ''}`;
    let model = this.models.get(key);
    if (model === undefined) {
      model = resolveModel({ model: settings.model, baseUrl: settings.baseUrl, ...this.where });
      this.models.set(key, model);
    }
    return model;
  }
}
