/**
 * "Skip to content": the first tab stop of every page, so a keyboard user does not walk through
 * the header and the whole navigation first. Hidden until focused; it moves focus to the main
 * region (which takes focus programmatically, tabIndex -1) rather than only scrolling.
 */
import { Button } from '@mantine/core';
import { type CSSProperties, useState } from 'react';
import { useTranslation } from 'react-i18next';

const HIDDEN: CSSProperties = { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clipPath: 'inset(50%)', whiteSpace: 'nowrap', padding: 0, border: 0 };
const SHOWN: CSSProperties = { position: 'fixed', top: 8, left: 8, zIndex: 1000 };

export function SkipLink({ target }: { target: string }) {
  const { t } = useTranslation();
  const [focused, setFocused] = useState(false);
  return (
    <Button
      component="a"
      href={`#${target}`}
      style={focused ? SHOWN : HIDDEN}
      onFocus={() => setFocused(true)}
      onBlur={() => setFocused(false)}
      onClick={(e) => {
        e.preventDefault();
        document.getElementById(target)?.focus();
      }}
    >
      {t('app.skip')}
    </Button>
  );
}
