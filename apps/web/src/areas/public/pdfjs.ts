import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { pdfjs } from 'react-pdf';
import 'react-pdf/dist/Page/TextLayer.css';
import 'react-pdf/dist/Page/AnnotationLayer.css';

// the worker is a file of this build (same origin: the CSP's script-src 'self'); imported only by the routes that
// show PDFs (/pdf-viewer, /attendClass), never by the sign-in page
pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;

/** pdf.js options: no eval (the CSP has no 'unsafe-eval'). */
export const PDF_OPTIONS = { isEvalSupported: false } as const;
