// @vitest-environment jsdom
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type ReactNode, StrictMode } from 'react';
import { IntlProvider } from 'react-intl';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fromCallback, fromPromise } from 'xstate';
import { type CapturedPhoto, captureMachine } from '../../../../machines/capture.machine';
import { CameraOpenError, captureImplementations, ImageCheckFailure } from '../../../actors/capture';
import { captureMachines } from '../../../app/machines/capture';
import es from '../../../i18n/messages/es.json';
import { type Runtime, RuntimeProvider } from '../../../runtime/context';
import { registerMachines } from '../../../runtime/machines';
import { CaptureView } from './capture-view';

const jpeg = (bytes = 16) => new File([new Uint8Array(bytes)], 'photo.jpg', { type: 'image/jpeg' });

function fakeStream() {
  const track = { stop: vi.fn(), addEventListener: vi.fn(), removeEventListener: vi.fn() };
  const stream = { getTracks: () => [track], getVideoTracks: () => [track] } as unknown as MediaStream;
  return { stream, track };
}

function fakeMachine(options: {
  camera?: () => Promise<MediaStream>;
  check?: (file: Blob) => Promise<CapturedPhoto>;
}) {
  const spies = { checkImage: vi.fn(), takePhoto: vi.fn(), stopCamera: vi.fn() };
  const machine = captureMachine.provide({
    actors: {
      startCamera: fromPromise(async () =>
        (
          options.camera ??
          (async () => {
            throw new CameraOpenError('denied');
          })
        )(),
      ),
      takePhoto: fromPromise(async (): Promise<Blob> => {
        spies.takePhoto();
        return jpeg(8000);
      }),
      checkImage: fromPromise(async ({ input }) => {
        spies.checkImage(input.file);
        return (
          options.check ??
          (async (file: Blob) => ({ blob: file, width: 1600, height: 1000 }) as CapturedPhoto)
        )(input.file);
      }),
    },
    actions: { stopCamera: spies.stopCamera },
  });
  return { machine, spies };
}

// The view asks the registry for its machine (the tests hand it theirs); the capture machine needs no runtime.
registerMachines(captureMachines);
const runtime = {} as Runtime;

function intl(children: ReactNode) {
  return (
    <IntlProvider locale="es" defaultLocale="es" messages={es}>
      <RuntimeProvider runtime={runtime}>{children}</RuntimeProvider>
    </IntlProvider>
  );
}

const root = () => document.querySelector('[data-capture-state]') as HTMLElement;

beforeEach(() => {
  URL.createObjectURL = vi.fn(() => 'blob:photo');
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('CaptureView', () => {
  it('explains a denied camera, offers to try again and to upload a file', async () => {
    const { machine } = fakeMachine({});
    render(intl(<CaptureView facing="environment" purpose="obverse" onPhoto={vi.fn()} machine={machine} />));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('No hay permiso para usar la cámara');
    expect(alert).toHaveTextContent('Permita el uso de la cámara');
    expect(root()).toHaveAttribute('data-capture-state', 'cameraFailed');
    expect(root()).toHaveAttribute('data-capture-error', 'camera_failure');
    expect(root()).toHaveAttribute('data-camera-failure', 'denied');
    expect(screen.getByRole('button', { name: 'Volver a intentarlo con la cámara' })).toBeVisible();

    const input = screen.getByLabelText('Subir un archivo en su lugar');
    expect(input).toBe(screen.getByTestId('capture-file'));
    expect(input).toHaveAttribute('type', 'file');
    expect(input).toHaveAttribute('accept', 'image/jpeg,image/png');
    expect(input).toHaveAttribute('capture', 'environment');
    expect(input).toHaveAccessibleDescription('Imagen JPG o PNG, de 5 kB a 5 MB.');
  });

  it('takes a chosen file to the preview, and "Use this photo" hands it over once', async () => {
    const user = userEvent.setup();
    const { machine, spies } = fakeMachine({});
    const onPhoto = vi.fn();
    const view = (busy: boolean) =>
      intl(<CaptureView facing="user" purpose="selfie" onPhoto={onPhoto} busy={busy} machine={machine} />);
    const { rerender, unmount } = render(view(false));

    const file = jpeg(9000);
    await user.upload(await screen.findByTestId('capture-file'), file);
    expect(spies.checkImage).toHaveBeenCalledWith(file);

    const photo = await screen.findByRole('img', { name: 'Su selfie' });
    expect(photo).toHaveAttribute('src', 'blob:photo');
    expect(root()).toHaveAttribute('data-capture-state', 'preview');
    expect(root()).not.toHaveAttribute('data-capture-error');
    expect(screen.queryByTestId('capture-file')).toBeNull(); // the machine takes no file here
    expect(screen.getByTestId('capture-retake')).toHaveAccessibleName('Repetir la foto');

    await user.click(screen.getByTestId('capture-use'));
    await waitFor(() => expect(root()).toHaveAttribute('data-capture-state', 'done'));
    expect(onPhoto).toHaveBeenCalledOnce();
    expect(onPhoto).toHaveBeenCalledWith({ blob: file, width: 1600, height: 1000 });
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:photo');

    rerender(view(true));
    expect(screen.getByRole('status')).toHaveTextContent('Enviando la foto…');
    rerender(view(false));
    expect(onPhoto).toHaveBeenCalledOnce();
    unmount();
  });

  it('shows why a file that is too small was refused, and lets the person choose another', async () => {
    const user = userEvent.setup();
    const { machine } = fakeMachine({
      check: async () => {
        throw new ImageCheckFailure('image_too_small');
      },
    });
    render(intl(<CaptureView facing="environment" purpose="reverse" onPhoto={vi.fn()} machine={machine} />));

    await user.upload(await screen.findByTestId('capture-file'), jpeg(100));

    await waitFor(() => expect(root()).toHaveAttribute('data-capture-state', 'rejected.imageTooSmall'));
    expect(root()).toHaveAttribute('data-capture-error', 'image_too_small');
    expect(screen.getByRole('alert')).toHaveTextContent('La imagen es demasiado pequeña');
    expect(screen.getByTestId('capture-file')).toBeInTheDocument();
  });

  it('shows the live camera with its guide; "Take photo" goes to the preview', async () => {
    const user = userEvent.setup();
    const { stream } = fakeStream();
    const { machine, spies } = fakeMachine({ camera: async () => stream });
    render(intl(<CaptureView facing="environment" purpose="obverse" onPhoto={vi.fn()} machine={machine} />));

    const take = await screen.findByTestId('capture-take');
    expect(root()).toHaveAttribute('data-capture-state', 'camera.streaming.watching.framing');
    const video = document.querySelector('video') as HTMLVideoElement;
    expect(video.srcObject).toBe(stream);
    expect(video).toHaveAttribute('playsinline');
    expect(video).toHaveAccessibleName('Vista de la cámara');
    expect(video).toHaveAccessibleDescription(/Coloque la cara delantera del documento/);
    expect(screen.getByTestId('capture-file')).toBeInTheDocument();

    await user.click(take);
    await screen.findByRole('img', { name: 'Foto de la cara delantera del documento' });
    expect(spies.takePhoto).toHaveBeenCalledOnce();
    expect(spies.stopCamera).toHaveBeenCalledOnce();
  });

  it('a selfie camera that sees no face says so and keeps the "Take photo" button', async () => {
    const user = userEvent.setup();
    const { stream } = fakeStream();
    const { machine, spies } = fakeMachine({ camera: async () => stream });
    let report:
      | ((event: { type: 'frame.scored'; sharp: boolean; face?: 'absent' | 'tooSmall' }) => void)
      | undefined;
    const watching = machine.provide({
      actors: {
        watchFrames: fromCallback(({ sendBack }) => {
          report = sendBack;
        }),
      },
    });
    render(intl(<CaptureView facing="user" purpose="selfie" onPhoto={vi.fn()} machine={watching} />));
    await screen.findByTestId('capture-take');
    expect(screen.queryByTestId('capture-face-hint')).not.toBeInTheDocument();

    for (let i = 0; i < 5; i++) act(() => report?.({ type: 'frame.scored', sharp: true, face: 'absent' }));
    expect(root()).toHaveAttribute('data-capture-state', 'camera.streaming.watching.noFace');
    expect(screen.getByRole('status')).toHaveTextContent('Todavía no se ve ninguna cara');
    act(() => report?.({ type: 'frame.scored', sharp: true, face: 'tooSmall' }));
    expect(screen.getByTestId('capture-face-hint')).toHaveTextContent('demasiado lejos');
    expect(spies.takePhoto).not.toHaveBeenCalled();

    await user.click(screen.getByTestId('capture-take'));
    await screen.findByRole('img', { name: /selfie|cara/i });
    expect(spies.takePhoto).toHaveBeenCalledOnce();
  });

  it('reports a video that will not play as a mount failure', async () => {
    const { stream } = fakeStream();
    const { machine } = fakeMachine({ camera: async () => stream });
    render(intl(<CaptureView facing="environment" purpose="obverse" onPhoto={vi.fn()} machine={machine} />));

    await screen.findByTestId('capture-take');
    fireEvent.error(document.querySelector('video') as HTMLVideoElement);

    expect(await screen.findByRole('alert')).toHaveTextContent('No se ha podido mostrar la cámara');
    expect(root()).toHaveAttribute('data-capture-error', 'mount_failure');
    expect(screen.getByTestId('capture-file')).toBeInTheDocument();
  });

  it('turns the camera off when the view goes away while it is on', async () => {
    const { stream, track } = fakeStream();
    const { machine } = fakeMachine({ camera: async () => stream });
    const { unmount } = render(
      intl(<CaptureView facing="user" purpose="selfie" onPhoto={vi.fn()} machine={machine} />),
    );
    await screen.findByTestId('capture-take');
    unmount();
    await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
    expect(track.stop).toHaveBeenCalled();
  });

  describe('with the real startCamera', () => {
    function stubCamera(getUserMedia: () => Promise<MediaStream>) {
      Object.defineProperty(navigator, 'mediaDevices', { value: { getUserMedia }, configurable: true });
    }
    afterEach(() => {
      Reflect.deleteProperty(navigator, 'mediaDevices');
    });

    it('flags the camera failure from the browser error', async () => {
      stubCamera(() => Promise.reject(new DOMException('busy', 'NotReadableError')));
      const machine = captureMachine.provide(captureImplementations(() => null));
      render(intl(<CaptureView facing="user" purpose="selfie" onPhoto={vi.fn()} machine={machine} />));

      expect(await screen.findByRole('alert')).toHaveTextContent('La cámara está ocupada');
      expect(root()).toHaveAttribute('data-camera-failure', 'in-use');
    });

    it('keeps one camera on under strict mode and turns it off when the view goes away', async () => {
      const opened: ReturnType<typeof fakeStream>[] = [];
      stubCamera(async () => {
        const camera = fakeStream();
        opened.push(camera);
        return camera.stream;
      });
      const machine = captureMachine.provide(captureImplementations(() => null));
      const { unmount } = render(
        <StrictMode>
          {intl(<CaptureView facing="environment" purpose="obverse" onPhoto={vi.fn()} machine={machine} />)}
        </StrictMode>,
      );

      await screen.findByTestId('capture-take');
      await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
      const shown = (document.querySelector('video') as HTMLVideoElement).srcObject;
      const live = opened.filter((camera) => camera.track.stop.mock.calls.length === 0);
      expect(live.map((camera) => camera.stream)).toEqual([shown]);

      unmount();
      await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
      for (const camera of opened) expect(camera.track.stop).toHaveBeenCalled();
    });
  });
});
