/**
 * The script editor: CodeMirror 6 with the shell mode (legacy-modes via StreamLanguage), line
 * numbers, undo history, search and bracket matching (basicSetup). Keyboard: Tab is NOT taken by
 * the editor, so Tab and Shift+Tab move to the next and previous control like everywhere else
 * (indent with Ctrl+] and outdent with Ctrl+[; Escape closes the search panel). The editable
 * area carries the accessible label; colours follow the console's light or dark scheme.
 */
import { useComputedColorScheme } from '@mantine/core';
import { HighlightStyle, StreamLanguage, syntaxHighlighting } from '@codemirror/language';
import { shell } from '@codemirror/legacy-modes/mode/shell';
import { Compartment, EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { basicSetup } from 'codemirror';
import { useEffect, useRef } from 'react';

// Colours chosen for 4.5:1 or more on the editor's background in each scheme.
const lightStyle = HighlightStyle.define([
  { tag: tags.keyword, color: '#7a1fa2' },
  { tag: [tags.string, tags.special(tags.string)], color: '#a3161b' },
  { tag: tags.comment, color: '#5c6370', fontStyle: 'italic' },
  { tag: [tags.variableName, tags.definition(tags.variableName)], color: '#0b5cad' },
  { tag: [tags.number, tags.bool, tags.atom], color: '#8a4b00' },
  { tag: [tags.standard(tags.variableName), tags.operator], color: '#1d6b3a' },
]);
const darkStyle = HighlightStyle.define([
  { tag: tags.keyword, color: '#d7a6ff' },
  { tag: [tags.string, tags.special(tags.string)], color: '#ffa3a3' },
  { tag: tags.comment, color: '#a0a8b4', fontStyle: 'italic' },
  { tag: [tags.variableName, tags.definition(tags.variableName)], color: '#8cc8ff' },
  { tag: [tags.number, tags.bool, tags.atom], color: '#ffc777' },
  { tag: [tags.standard(tags.variableName), tags.operator], color: '#8ee0a8' },
]);

function schemeExtensions(dark: boolean) {
  return [
    syntaxHighlighting(dark ? darkStyle : lightStyle),
    EditorView.theme(
      {
        '&': { backgroundColor: 'var(--mantine-color-body)', color: 'var(--mantine-color-text)', fontSize: '13px' },
        '.cm-gutters': { backgroundColor: 'var(--mantine-color-default)', color: dark ? '#a0a8b4' : '#5c6370', borderRight: '1px solid var(--mantine-color-default-border)' },
        '.cm-activeLine': { backgroundColor: dark ? 'rgba(255,255,255,0.04)' : 'rgba(0,0,0,0.03)' },
        '.cm-activeLineGutter': { backgroundColor: 'transparent' },
        '&.cm-focused': { outline: '2px solid var(--mantine-primary-color-filled)', outlineOffset: '1px' },
        '.cm-content': { caretColor: 'var(--mantine-color-text)' },
        '.cm-scroller': { fontFamily: 'var(--mantine-font-family-monospace)', minHeight: '220px', maxHeight: '480px' },
      },
      { dark },
    ),
  ];
}

export function ScriptEditor({ value, onChange, label, describedBy }: { value: string; onChange: (v: string) => void; label: string; describedBy?: string }) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const scheme = useRef(new Compartment());
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  // True while the text is replaced from outside (another script opened): not the user's edit.
  const replacing = useRef(false);
  const dark = useComputedColorScheme('light') === 'dark';

  // biome-ignore lint/correctness/useExhaustiveDependencies: created once; value, scheme and label are synced below
  useEffect(() => {
    if (!host.current) return;
    const v = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          basicSetup,
          StreamLanguage.define(shell),
          scheme.current.of(schemeExtensions(dark)),
          EditorView.lineWrapping,
          EditorView.contentAttributes.of({ 'aria-label': label, ...(describedBy ? { 'aria-describedby': describedBy } : {}) }),
          EditorView.updateListener.of((u) => {
            if (u.docChanged && !replacing.current) onChangeRef.current(u.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
  }, []);

  useEffect(() => {
    view.current?.dispatch({ effects: scheme.current.reconfigure(schemeExtensions(dark)) });
  }, [dark]);

  // A different script was opened (or saved back): replace the text without echoing it as an edit.
  useEffect(() => {
    const v = view.current;
    if (!v || v.state.doc.toString() === value) return;
    replacing.current = true;
    try {
      v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value } });
    } finally {
      replacing.current = false;
    }
  }, [value]);

  return <div ref={host} style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 4, overflow: 'hidden' }} data-testid="script-editor" />;
}
