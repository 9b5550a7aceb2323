import { formDraft } from '../../actors/form-draft';
import { interdictionCheckLogic } from '../../actors/interdictions';
import { watchlistUploadOf } from '../../actors/watchlists';
import type { MachineImplementations } from '../../runtime/machines';

/** The machines of UploadWatchlist, UploadWatchlistResult and CheckInterdictions, with their real effects. */
export const watchlistMachines = {
  watchlistUpload: watchlistUploadOf,
  interdictionCheck: interdictionCheckLogic,
  formDraft: () => formDraft,
} satisfies Partial<MachineImplementations>;
