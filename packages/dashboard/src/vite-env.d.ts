/// <reference types="vite/client" />
// Vite's ambient types (`import './screen.css'`, `import.meta.env`) for the typecheck of the whole repository.
