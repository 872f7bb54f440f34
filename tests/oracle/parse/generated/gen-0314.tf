null =f() /* c
 */
