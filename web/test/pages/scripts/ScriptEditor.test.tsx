import { act, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ScriptEditor } from '../../../src/pages/scripts/ScriptEditor';
import { renderWithProviders } from '../../render';

function Harness({ initial, onChange }: { initial: string; onChange: (v: string) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <button type="button" onClick={() => setValue('echo replaced')}>
        replace
      </button>
      <ScriptEditor
        value={value}
        onChange={(v) => {
          setValue(v);
          onChange(v);
        }}
        label="Script"
        describedBy="help"
      />
    </>
  );
}

describe('ScriptEditor', () => {
  it('is a labelled text box with the shell highlighted; edits reach onChange, a new value replaces the text without echoing', async () => {
    const onChange = vi.fn();
    renderWithProviders(<Harness initial={'echo "hi $USER" # greet'} onChange={onChange} />);
    const box = screen.getByRole('textbox', { name: 'Script' });
    expect(box.getAttribute('aria-describedby')).toBe('help');
    expect(box.textContent).toBe('echo "hi $USER" # greet');
    // The shell mode tokenises: the string and the comment get their own highlighted spans.
    expect(box.querySelectorAll('span').length).toBeGreaterThanOrEqual(2);

    await act(async () => screen.getByRole('button', { name: 'replace' }).click());
    expect(box.textContent).toBe('echo replaced');
    expect(onChange).not.toHaveBeenCalled();
  });
});
