// The benchmark page: the portal's own image preparation, exposed to the bench driver.
import { prepareImage } from '../../src/media/prepare-image';

declare global {
  interface Window {
    benchPrepare: (
      url: string,
      runs: number,
    ) => Promise<{ times: number[]; bytes: number; width: number; height: number }>;
  }
}

window.benchPrepare = async (url, runs) => {
  const file = await (await fetch(url)).blob();
  const times: number[] = [];
  let last: Awaited<ReturnType<typeof prepareImage>> | undefined;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    last = await prepareImage(file);
    times.push(performance.now() - started);
  }
  return { times, bytes: last?.blob.size ?? 0, width: last?.width ?? 0, height: last?.height ?? 0 };
};
