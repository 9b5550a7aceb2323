import { captureLogic } from '../../actors/capture';
import type { MachineImplementations } from '../../runtime/machines';

/** The capture view's machine with this browser's camera, frame scorer and photo checks. */
export const captureMachines = {
  capture: (_runtime, shownVideo) => captureLogic(shownVideo),
} satisfies Partial<MachineImplementations>;
