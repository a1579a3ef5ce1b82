// This program does not compile: it uses a variable that does not exist.
package main

import "fmt"

func main() {
	fmt.Println(answer)
}
