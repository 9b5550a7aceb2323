import { ScreenPending } from '../../components/screen-pending';

export { DeleteAccount } from './delete-account';
export { UserProfile } from './profile';
export const ProcessVisit = () => <ScreenPending screen="ProcessVisit" />;
