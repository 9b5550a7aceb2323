import { ScreenPending } from '../../components/screen-pending';

export const UserHome = () => <ScreenPending screen="UserHome" />;
export const UserProfile = () => <ScreenPending screen="UserProfile" />;
export const DeleteAccount = () => <ScreenPending screen="DeleteAccount" />;
