import type { DownloadedFile } from "../../api/types";

/**
 * Hands a downloaded file to the browser as a download: a Blob URL and a clicked anchor. The URL
 * holds the bytes only (never the key); it is revoked once the browser has taken the file.
 */
export function saveFile(file: DownloadedFile, doc: Document = document): void {
  const url = URL.createObjectURL(new Blob([file.bytes as BlobPart], { type: file.contentType }));
  const anchor = doc.createElement("a");
  anchor.href = url;
  anchor.download = file.fileName;
  anchor.style.display = "none";
  doc.body.appendChild(anchor);
  try {
    anchor.click();
  } finally {
    anchor.remove();
    // The click starts the download asynchronously: revoking at once can cancel it in some browsers.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }
}
