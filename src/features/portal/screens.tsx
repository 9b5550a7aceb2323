import { ScreenPending } from '../../components/screen-pending';

export const PortalManagement = () => <ScreenPending screen="PortalManagement" />;
export const PortalAccounts = () => <ScreenPending screen="PortalAccounts" />;
export const PortalUsers = () => <ScreenPending screen="PortalUsers" />;
export const PortalUserDetail = () => <ScreenPending screen="PortalUserDetail" />;
export const SingleRegistration = () => <ScreenPending screen="SingleRegistration" />;
export const DelegatedFinishRegister = () => <ScreenPending screen="DelegatedFinishRegister" />;
export const AuditAccesses = () => <ScreenPending screen="AuditAccesses" />;
export const ActivateUsers = () => <ScreenPending screen="ActivateUsers" />;
export const CheckInterdictions = () => <ScreenPending screen="CheckInterdictions" />;
export const AssistantAccountCancellation = () => <ScreenPending screen="AssistantAccountCancellation" />;
export const UploadWatchlist = () => <ScreenPending screen="UploadWatchlist" />;
export const UploadWatchlistResult = () => <ScreenPending screen="UploadWatchlistResult" />;
