import { useEffect, useState } from 'react';

/**
 * An object URL of bytes the SDK loaded (an image behind the API's headers, which an `<img>`
 * cannot send), revoked when the bytes change or the component goes.
 */
export function useObjectUrl(bytes: Uint8Array | undefined, type: string): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!bytes) return;
    const created = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type }));
    setUrl(created);
    return () => {
      URL.revokeObjectURL(created);
      setUrl(undefined);
    };
  }, [bytes, type]);
  return url;
}
