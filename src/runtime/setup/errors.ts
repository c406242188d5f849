/** What kind of wrong input: front ends map it (the server to 400, 404 or 409). */
export type RuntimeInputErrorCode = 'bad_input' | 'not_found' | 'conflict';

/**
 * Something the user asked for cannot be done as asked: an unknown or ambiguous id, a change a
 * task's status does not allow, a missing workspace, a database from a newer taskweave. Front
 * ends show the message as it is (the CLI exits with code 2; the server answers 4xx).
 */
export class RuntimeInputError extends Error {
  override name = 'RuntimeInputError';
  readonly code: RuntimeInputErrorCode;

  constructor(message: string, options: ErrorOptions & { code?: RuntimeInputErrorCode } = {}) {
    super(message, options);
    this.code = options.code ?? 'bad_input';
  }
}
