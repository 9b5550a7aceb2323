import { VisitsScreen } from './list';

export { VisitConfirmation } from './confirmation';
export { VisitDetail } from './detail';
export { NewVisit } from './new-visit';
export { ProcessVisit } from './process-visit';

export const VisitList = () => <VisitsScreen screen="VisitList" />;
export const MyVisits = () => <VisitsScreen screen="MyVisits" />;
