import { ScreenPending } from '../../components/screen-pending';

export const MyAccreditations = () => <ScreenPending screen="MyAccreditations" />;
export const AccreditationDetail = () => <ScreenPending screen="AccreditationDetail" />;
export const AccreditFace = () => <ScreenPending screen="AccreditFace" />;
export const AccreditProof = () => <ScreenPending screen="AccreditProof" />;
