if = f(true + 1) /* c
 */
