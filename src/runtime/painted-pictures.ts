import { createContext, useContext } from 'react';

// The pictures of a screen the server paints with the person's data (src/app/shell-data.tsx): the app shows a
// picture it holds as a Blob by an object URL made in an effect, which a server's render never runs; the paint
// shows the same picture by a data: URL instead. The app never provides it.

export const PaintedPictures = createContext<ReadonlyMap<Blob, string> | undefined>(undefined);

/** The paint's data: URL of `blob`, on the server; null in the app. */
export function usePaintedPicture(blob: Blob | null): string | null {
  const pictures = useContext(PaintedPictures);
  return (blob && pictures?.get(blob)) ?? null;
}
