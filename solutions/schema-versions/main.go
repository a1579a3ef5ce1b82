package main

// A placeholder: this exercise is being written.
func main() {}
