// Facts about the book itself, shared by layouts, pages and the search index.

/** The book's title, shown in the header, the home page and browser tabs. */
export const BOOK_TITLE = 'Inside the Control Plane';

/** One sentence describing the book, for the home page and <meta name="description">. */
export const BOOK_DESCRIPTION =
  'An interactive textbook about the Kubernetes control plane: follow one kubectl apply through the API server, etcd, the scheduler, controllers and the kubelet, in a simulated cluster that runs in your browser.';
