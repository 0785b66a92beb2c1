module example.com/notebooklib

go 1.22
