import { checkQueuedModel } from '../../config/queued-model-trust.js';
import { resolveModel } from '../../config/resolve-model.js';
import type { ResolvedModel } from '../../model/types.js';
import type { QueuedSettings } from './queued-settings.js';

/** Where queued models are resolved, and what this process chose itself (see checkQueuedModel). */
export interface QueuedModelsOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** This process's own model id and --base-url. */
  ownModel: string;
  ownBaseUrl?: string;
  /** Started with --allow-queued-scripts. */
  allowScripts: boolean;
}

/**
 * The models of goals queued with another model (or base URL) than this process's: checked
 * against what this process trusts (checkQueuedModel) and resolved as if given by `--model` (and
 * `--base-url`), once per model and base URL for the runtime's life.
 */
export class QueuedModels {
  private readonly models = new Map<string, Promise<ResolvedModel>>();

  constructor(private readonly options: QueuedModelsOptions) {}

  /** The model a task queued with `settings` runs with; a QueuedModelError when it is not trusted here. */
  modelFor(settings: QueuedSettings): Promise<ResolvedModel> {
    const key = `${settings.model} ${settings.baseUrl ?? ''}`;
    let model = this.models.get(key);
    if (model === undefined) {
      model = this.resolve(settings);
      this.models.set(key, model);
    }
    return model;
  }

  private async resolve(settings: QueuedSettings): Promise<ResolvedModel> {
    const { cwd, env, ownModel, ownBaseUrl, allowScripts } = this.options;
    await checkQueuedModel(
      { model: settings.model, ...(settings.baseUrl === undefined ? {} : { baseUrl: settings.baseUrl }) },
      { ownModel, ...(ownBaseUrl === undefined ? {} : { ownBaseUrl }), allowScripts, cwd, env },
    );
    return resolveModel({ model: settings.model, baseUrl: settings.baseUrl, cwd, env });
  }
}
