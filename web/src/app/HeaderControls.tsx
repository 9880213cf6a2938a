/** Language and colour scheme, each remembered by this browser. */
import { ActionIcon, Menu, Tooltip, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { IconLanguage, IconMoon, IconSun } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, setLanguage } from '../i18n';

export function LanguageMenu() {
  const { t, i18n } = useTranslation();
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Tooltip label={t('header.language')} withArrow>
          <ActionIcon variant="subtle" color="gray" size={40} aria-label={t('header.language')}>
            <IconLanguage size={20} />
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        {LANGUAGES.map((l) => (
          <Menu.Item key={l.code} onClick={() => setLanguage(l.code)} aria-current={i18n.language === l.code ? 'true' : undefined} fw={i18n.language === l.code ? 700 : undefined} lang={l.code}>
            {l.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

export function ColorSchemeToggle() {
  const { t } = useTranslation();
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light');
  const next = computed === 'dark' ? 'light' : 'dark';
  const label = `${t('header.theme')}: ${t(`header.${next}`)}`;
  return (
    <Tooltip label={label} withArrow>
      <ActionIcon variant="subtle" color="gray" size={40} onClick={() => setColorScheme(next)} aria-label={label}>
        {computed === 'dark' ? <IconSun size={20} /> : <IconMoon size={20} />}
      </ActionIcon>
    </Tooltip>
  );
}
