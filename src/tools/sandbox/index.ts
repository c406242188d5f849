/**
 * The sandbox room's face for other layers: whether bubblewrap is there, and how a command is
 * launched inside it. The modes a user picks are the layer's vocabulary: tools/sandbox-modes.ts.
 */
export { type CommandSandbox, sandboxLaunch } from './sandbox.js';
export { probeSandbox } from './sandbox-probe.js';
