/** Upload: the limit shows before a file is chosen, and a file over it is refused here, never sent (progress: the journey). */
import { fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { en } from '../../../src/i18n/en';
import { UploadDialog } from '../../../src/pages/remote-files/UploadDialog';
import { renderWithProviders } from '../../render';

const mocks = vi.hoisted(() => ({ upload: vi.fn() }));
vi.mock('../../../src/api/resources/remote-files', () => ({
  remoteFileQueries: {
    server: (id: number) => ['remote-files', id],
    limits: () => ({ queryKey: ['remote-files', 'limits'], queryFn: async () => ({ upload_max_bytes: 1024 * 1024, zip_max_bytes: 1, zip_max_uncompressed: 1, zip_max_entries: 1, zip_listing_max: 1 }) }),
  },
  remoteFilesApi: { upload: mocks.upload },
}));

const r = en.remoteFiles;
const fileInput = () => document.querySelector('input[type="file"]') as HTMLInputElement;

beforeEach(() => mocks.upload.mockReset());

describe('UploadDialog', () => {
  it('shows the limit first and refuses a larger file without sending it', async () => {
    renderWithProviders(<UploadDialog serverId={3} dir="/srv/app" opened onClose={() => {}} />);
    expect(await screen.findByText(r.uploadLimit.replace('{{size}}', '1.0 MiB'))).toBeTruthy();
    fireEvent.change(fileInput(), { target: { files: [new File([new Uint8Array(2 * 1024 * 1024)], 'big.bin')] } });
    expect((await screen.findByRole('alert')).textContent).toBe(r.tooLarge.replace('{{size}}', '2.0 MiB').replace('{{limit}}', '1.0 MiB'));
    expect(screen.getByRole('button', { name: r.send }).hasAttribute('disabled')).toBe(true);
    expect(mocks.upload).not.toHaveBeenCalled();
  });
});
