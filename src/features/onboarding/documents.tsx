import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { DocumentChoice } from '../../../contract/api/onboarding';
import {
  asksDocumentCountry,
  DOCUMENT_COUNTRIES,
  isCompleteDocumentChoice,
} from '../../../contract/domain/documents';
import { Button } from '../../components/ui/button';
import { CancelEnrolment, EnrolmentFrame, ScreenTitle } from './enrolment-frame';

/** RegisterDocuments (spec §2, §3): which document the person will scan, and its country where it has one. */
export function RegisterDocuments() {
  const intl = useIntl();
  const [documentType, setDocumentType] = useState<DocumentChoice | null>(null);
  const [country, setCountry] = useState<string>('ES');
  const [tried, setTried] = useState(false);
  return (
    <EnrolmentFrame screen="RegisterDocuments">
      {({ actor, snapshot }) => {
        const docs = snapshot.context.supportedDocs;
        const busy = snapshot.hasTag('busy');
        const complete = documentType !== null && isCompleteDocumentChoice(docs, documentType, country);
        return (
          <form
            className="flex flex-col gap-6"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              setTried(true);
              if (documentType && complete) {
                actor.send({
                  type: 'document.chosen',
                  documentType,
                  documentCountry: asksDocumentCountry(documentType) ? country : null,
                });
              }
            }}
          >
            <ScreenTitle titleId="documents.title" leadId="documents.lead" />
            <fieldset
              className="flex flex-col gap-3"
              aria-describedby={tried && !documentType ? 'doc-error' : undefined}
            >
              <legend className="mb-2 font-medium">
                <FormattedMessage id="documents.type" />
              </legend>
              {docs.map((doc) => (
                <label
                  key={doc}
                  className="flex min-h-11 items-center gap-3 rounded-lg border border-slate-300 bg-white px-4 py-3 has-[:checked]:border-brand has-[:checked]:ring-2 has-[:checked]:ring-brand/30"
                >
                  <input
                    type="radio"
                    name="document-type"
                    value={doc}
                    className="size-5 accent-brand"
                    checked={documentType === doc}
                    onChange={() => setDocumentType(doc)}
                  />
                  <span>{intl.formatMessage({ id: `documents.type.${doc}` })}</span>
                </label>
              ))}
              {tried && !documentType && (
                <p id="doc-error" className="text-sm text-red-700">
                  <FormattedMessage id="documents.required" />
                </p>
              )}
            </fieldset>
            {documentType && asksDocumentCountry(documentType) && (
              <div className="flex flex-col gap-1.5">
                <label htmlFor="document-country" className="text-sm font-medium text-slate-800">
                  <FormattedMessage id="documents.country" />
                </label>
                <select
                  id="document-country"
                  className="h-11 rounded-lg border border-slate-300 bg-white px-3"
                  value={country}
                  onChange={(event) => setCountry(event.target.value)}
                >
                  {DOCUMENT_COUNTRIES.map((code) => (
                    <option key={code} value={code}>
                      {intl.formatMessage({ id: `documents.country.${code}` })}
                    </option>
                  ))}
                </select>
              </div>
            )}
            <Button type="submit" loading={busy} data-testid="documents-continue">
              <FormattedMessage id="enrolment.continue" />
            </Button>
            <CancelEnrolment actor={actor} />
          </form>
        );
      }}
    </EnrolmentFrame>
  );
}
