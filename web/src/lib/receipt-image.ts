// A receipt photo is made smaller on the phone before it is kept: a phone camera's 12 MP picture
// is 3–6 MB, over the server's 2 MiB limit and slow on a poor signal, while 2,048 px on the long
// side keeps a receipt legible. Re-encoding also leaves out the camera's metadata (location).

/** The contract's bound: the server keeps receipts at most this many pixels on the long side. */
export const MAX_RECEIPT_SIDE = 2048;
export const RECEIPT_JPEG_QUALITY = 0.85;

/** The picked file as a JPEG at most MAX_RECEIPT_SIDE px long; the file itself if the browser cannot decode it. */
export async function prepareReceipt(file: Blob): Promise<Blob> {
  if (typeof createImageBitmap !== 'function') return file;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    // Not a picture this browser reads (HEIC on some, a PDF): kept as it is, and the server's
    // answer is shown with "Remove photo" if it refuses it too.
    return file;
  }
  try {
    const scale = Math.min(1, MAX_RECEIPT_SIDE / Math.max(bitmap.width, bitmap.height));
    const width = Math.max(1, Math.round(bitmap.width * scale));
    const height = Math.max(1, Math.round(bitmap.height * scale));
    return (await encodeJpeg(bitmap, width, height)) ?? file;
  } catch {
    return file;
  } finally {
    bitmap.close();
  }
}

async function encodeJpeg(bitmap: ImageBitmap, width: number, height: number): Promise<Blob | null> {
  if (typeof OffscreenCanvas !== 'undefined') {
    const canvas = new OffscreenCanvas(width, height);
    if (!draw(canvas.getContext('2d'), bitmap, width, height)) return null;
    return canvas.convertToBlob({ type: 'image/jpeg', quality: RECEIPT_JPEG_QUALITY });
  }
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  if (!draw(canvas.getContext('2d'), bitmap, width, height)) return null;
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', RECEIPT_JPEG_QUALITY));
}

function draw(context: OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D | null, bitmap: ImageBitmap, width: number, height: number): boolean {
  if (!context) return false;
  // JPEG has no transparency: a transparent screenshot would turn black without a white page.
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  context.drawImage(bitmap, 0, 0, width, height);
  return true;
}
