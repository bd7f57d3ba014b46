import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { pdfjs } from 'react-pdf';
import 'react-pdf/dist/Page/TextLayer.css';
import 'react-pdf/dist/Page/AnnotationLayer.css';

// the worker is a file of this build (same origin: the CSP's script-src 'self'); imported only by the routes that
// show PDFs (/pdf-viewer, /attendClass), never by the sign-in page
pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;

/** Where the build serves pdfjs-dist's cmaps/ and standard_fonts/ (`/static/pdfjs-<version>/`, vite-pdfjs-assets.ts). */
declare const __PDFJS_ASSETS__: string;

/**
 * pdf.js options: no eval (the CSP has no 'unsafe-eval'); the CMaps and standard fonts of this build (same origin),
 * without which a PDF whose Chinese font is not embedded (STSong-Light, UniGB-UCS2-H…) renders blank.
 */
export const PDF_OPTIONS = {
  isEvalSupported: false,
  cMapUrl: `${__PDFJS_ASSETS__}cmaps/`,
  cMapPacked: true,
  standardFontDataUrl: `${__PDFJS_ASSETS__}standard_fonts/`,
} as const;
