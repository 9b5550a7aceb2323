import { ScreenPending } from '../../components/screen-pending';

export const UserProfile = () => <ScreenPending screen="UserProfile" />;
export const DeleteAccount = () => <ScreenPending screen="DeleteAccount" />;
export const ProcessVisit = () => <ScreenPending screen="ProcessVisit" />;
