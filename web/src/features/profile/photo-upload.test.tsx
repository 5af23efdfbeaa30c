import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '@/testing/fixtures';
import { stubXhr, type FakeXhr } from '@/testing/fake-xhr';
import { renderApp } from '@/testing/render-app';
import { renderWithSync } from '@/testing/render-with-sync';
import { ProfilePage } from './profile-page';
import { checkPhoto, MAX_PHOTO_BYTES } from './upload-photo';

let Xhr: typeof FakeXhr;

beforeEach(() => {
  Xhr = stubXhr();
});

afterEach(() => vi.restoreAllMocks());

const image = (bytes: number, type = 'image/png', name = 'me.png') => new File([new Uint8Array(bytes)], name, { type });

function setup(user = makeUser()) {
  const app = renderWithSync(<ProfilePage />, { path: '/app/profile', user });
  // Not a person picking files: the accept filter would hide a non-image before the app saw it.
  const picker = userEvent.setup({ applyAccept: false });
  return {
    ...app,
    choose: async (file: File) => picker.upload(await screen.findByLabelText('Profile picture file'), file),
    button: () => screen.getByRole('button', { name: 'Change Picture' }),
  };
}

const newUser = makeUser({ photoURL: '/api/v1/files/users/u1/profile_1742550000000' });

describe('checkPhoto', () => {
  it('wants an image of at most 2 MB (2,097,152 bytes)', () => {
    expect(MAX_PHOTO_BYTES).toBe(2_097_152);
    expect(checkPhoto({ type: 'image/jpeg', size: 2_097_152 })).toBeNull();
    expect(checkPhoto({ type: 'image/jpeg', size: 2_097_153 })).toBe('Image size must be less than 2MB');
    expect(checkPhoto({ type: 'application/pdf', size: 10 })).toBe('Please select an image file');
    expect(checkPhoto({ type: '', size: 10 })).toBe('Please select an image file');
  });
});

describe('picture upload', () => {
  it('offers a file picker for images only', async () => {
    setup();
    const input = await screen.findByLabelText('Profile picture file');
    expect(input).toHaveAttribute('type', 'file');
    expect(input).toHaveAttribute('accept', 'image/*');
  });

  it('refuses a file that is not an image, before sending anything', async () => {
    const page = setup();
    await page.choose(new File(['%PDF'], 'payslip.pdf', { type: 'application/pdf' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please select an image file');
    expect(Xhr.requests).toHaveLength(0);
  });

  it('refuses an image over 2 MB, before sending anything', async () => {
    const page = setup();
    await page.choose(image(MAX_PHOTO_BYTES + 1));
    expect(await screen.findByRole('alert')).toHaveTextContent('Image size must be less than 2MB');
    expect(Xhr.requests).toHaveLength(0);
  });

  it('uploads as multipart form data with a progress bar, then shows the new picture', async () => {
    const page = setup();
    const file = image(MAX_PHOTO_BYTES);
    await page.choose(file);

    const [xhr] = Xhr.requests;
    expect(xhr).toMatchObject({ method: 'POST', url: '/api/v1/profile/photo' });
    expect((xhr!.body as FormData).get('file')).toBeInstanceOf(File);
    expect(((xhr!.body as FormData).get('file') as File).name).toBe('me.png');
    expect(page.button()).toBeDisabled();

    act(() => xhr!.progress(0, 100));
    const bar = screen.getByRole('progressbar', { name: 'Uploading picture' });
    act(() => xhr!.progress(45, 100));
    expect(bar).toHaveAttribute('value', '0.45');
    expect(screen.getByText('Uploading... 45%')).toBeInTheDocument();

    act(() => xhr!.respond(200, { user: newUser }));
    expect(await screen.findByText('Profile picture updated')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar', { name: 'Uploading picture' })).not.toBeInTheDocument();
    expect(page.session.getState().user?.photoURL).toBe(newUser.photoURL);
    expect(screen.getByRole('region', { name: 'Your profile' }).querySelector('img')).toHaveAttribute('src', newUser.photoURL);
    expect(page.handle.requestSync).toHaveBeenCalledTimes(1);
    expect(page.button()).toBeEnabled();
  });

  it.each([
    [413, { error: { code: 'file-too-large', message: 'Image size must be less than 2MB' } }, 'Failed to upload image: Image size must be less than 2MB'],
    [422, { error: { code: 'invalid-image', message: 'Please select an image file' } }, 'Failed to upload image: Please select an image file'],
    [500, { error: { code: 'internal' } }, 'Failed to upload image: Unknown error'],
    [502, '<h1>Bad Gateway</h1>', 'Failed to upload image: Unknown error'],
  ])('reports a %i with the server reason, or Unknown error', async (status, body, text) => {
    const page = setup();
    await page.choose(image(1000, 'image/jpeg', 'me.jpg'));
    act(() => Xhr.requests[0]!.respond(status, body));
    expect(await screen.findByRole('alert')).toHaveTextContent(text);
    expect(page.session.getState().user?.photoURL).toBeNull();
    expect(page.button()).toBeEnabled();
  });

  it('reports a dropped connection as Unknown error', async () => {
    const page = setup();
    await page.choose(image(1000));
    act(() => Xhr.requests[0]!.fail());
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to upload image: Unknown error');
  });

  it('is switched off while offline, and says why', async () => {
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const page = setup();
    await screen.findByRole('region', { name: 'Your profile' });
    expect(page.button()).toBeDisabled();
    expect(page.button()).toHaveAccessibleDescription('You are offline. Uploading a picture needs a connection.');

    // The button starts listening in an effect, which React may run after the region is on
    // screen and after findBy has returned (a loaded machine): wait for the outcome. Either way
    // it follows: the event, or React's re-read of navigator.onLine when it subscribes.
    onLine.mockReturnValue(true);
    act(() => void window.dispatchEvent(new Event('online')));
    await waitFor(() => expect(page.button()).toBeEnabled());
    expect(screen.queryByText('You are offline. Uploading a picture needs a connection.')).not.toBeInTheDocument();

    // Now it is listening, so going offline again is seen through the event alone, within act.
    onLine.mockReturnValue(false);
    act(() => void window.dispatchEvent(new Event('offline')));
    expect(page.button()).toBeDisabled();
  });

  it('puts the new picture in the header avatar at once', async () => {
    const app = renderApp('/app/profile', { user: makeUser() });
    const header = await screen.findByRole('banner');
    const avatar = () => within(header).getByRole('link', { name: 'Open profile' }).querySelector('img');
    expect(avatar()).toBeNull();

    const picker = userEvent.setup({ applyAccept: false });
    await picker.upload(await screen.findByLabelText('Profile picture file'), image(500));
    act(() => Xhr.requests[0]!.respond(200, { user: newUser }));

    await waitFor(() => expect(avatar()).toHaveAttribute('src', newUser.photoURL));
    expect(app.session.getState().user?.photoURL).toBe(newUser.photoURL);
  });
});
