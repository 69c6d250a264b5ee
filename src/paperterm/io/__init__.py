"""Outside input and output: files and stdin within caps, HTTP, atomic writes, secrets kept out
of messages, the clipboard and the browser, the process environment."""
