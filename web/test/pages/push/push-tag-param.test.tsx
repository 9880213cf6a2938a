/** "Push to this tag": `/push?tag=` adds every server carrying the tag to the selection, then leaves the URL. */
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useLocation } from 'react-router';
import { saveSession } from '../../../src/api/session';
import { usePushFlowParams } from '../../../src/pages/push/push-flow-params';
import { renderWithProviders } from '../../render';
import { json } from '../../render';
import { fakeApi } from '../history/fake-api';

function Probe() {
  const flow = usePushFlowParams();
  const loc = useLocation();
  return <output data-testid="probe">{`${flow.ids.join(',')}|${loc.search}`}</output>;
}

afterEach(() => {
  vi.unstubAllGlobals();
  saveSession(null);
});

describe('push flow tag parameter', () => {
  it('resolves the tag to its servers, keeps servers already chosen, and drops the tag from the URL', async () => {
    const sent = fakeApi((r) => (r.path === '/api/servers/ids' ? json(200, { ids: [7, 3], total: 2 }) : undefined));
    renderWithProviders(<Probe />, { path: '/push?source=%2Ftmp%2Fsvc_upload_a&servers=5&tag=web' });
    await waitFor(() => expect(screen.getByTestId('probe').textContent).toBe('3,5,7|?source=%2Ftmp%2Fsvc_upload_a&servers=3%2C5%2C7'));
    expect(sent.find((r) => r.path === '/api/servers/ids')?.query.get('tag')).toBe('web');
  });
});
