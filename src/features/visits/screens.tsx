import { ScreenPending } from '../../components/screen-pending';

export const VisitList = () => <ScreenPending screen="VisitList" />;
export const MyVisits = () => <ScreenPending screen="MyVisits" />;
export const NewVisit = () => <ScreenPending screen="NewVisit" />;
export const VisitDetail = () => <ScreenPending screen="VisitDetail" />;
export const VisitConfirmation = () => <ScreenPending screen="VisitConfirmation" />;
