import type { RunControls } from '../connection/session-store.js';

/** The run settings beside the input, like a chat app's tool toggles. */
export function RunControlsBar({
  controls,
  onChange,
  disabled,
}: {
  controls: RunControls;
  onChange: (controls: RunControls) => void;
  disabled?: boolean;
}) {
  return (
    <fieldset className="controls">
      <legend className="visually-hidden">Run settings</legend>
      <label>
        Max steps
        <input
          type="number"
          min={1}
          max={10000}
          aria-label="Max steps"
          value={controls.maxSteps}
          disabled={disabled}
          onChange={(event) =>
            onChange({ ...controls, maxSteps: Math.max(1, Number(event.target.value) || 1) })
          }
        />
      </label>
      <label>
        Loop
        <select
          aria-label="Loop"
          value={controls.loop}
          disabled={disabled}
          onChange={(event) => onChange({ ...controls, loop: event.target.value as RunControls['loop'] })}
        >
          <option value="react">react</option>
          <option value="roa">roa</option>
        </select>
      </label>
      <label>
        Plan
        <select
          aria-label="Plan mode"
          value={controls.plan}
          disabled={disabled}
          onChange={(event) => onChange({ ...controls, plan: event.target.value as RunControls['plan'] })}
        >
          <option value="auto">auto</option>
          <option value="always">always</option>
          <option value="never">never</option>
        </select>
      </label>
    </fieldset>
  );
}
