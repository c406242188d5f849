/** The background room's face for other layers: a session's background commands and their listing. */
export { type BackgroundCommandInfo, stateText } from './background-command.js';
export { BackgroundCommands, DEFAULT_BACKGROUND_MAX } from './background-commands.js';
