/** A failing component shows its error in place, never a blank page; the rest of the page lives on. */
import { Alert, Button, Stack } from '@mantine/core';
import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

function Fallback({ error, reset }: { error: Error; reset: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" title={t('errors.boundary')} role="alert">
      <Stack gap="xs" align="flex-start">
        <span>{error.message}</span>
        <Button size="xs" variant="light" onClick={reset}>
          {t('errors.tryAgain')}
        </Button>
      </Stack>
    </Alert>
  );
}

export class ErrorBoundary extends Component<{ children: ReactNode; resetKey?: unknown }, { error: Error | null; key: unknown }> {
  state = { error: null as Error | null, key: this.props.resetKey };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  static getDerivedStateFromProps(props: { resetKey?: unknown }, state: { error: Error | null; key: unknown }) {
    // Navigating elsewhere clears the error.
    return props.resetKey !== state.key ? { error: null, key: props.resetKey } : null;
  }

  render() {
    if (this.state.error) return <Fallback error={this.state.error} reset={() => this.setState({ error: null })} />;
    return this.props.children;
  }
}
