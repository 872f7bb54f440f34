null =[] /* c
 */
