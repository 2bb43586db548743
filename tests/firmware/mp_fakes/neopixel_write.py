import simscript


def neopixel_write(pin, buf):
    simscript.pixel_writes.append(bytes(buf))
